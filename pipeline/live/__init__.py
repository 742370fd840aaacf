"""The live browser: launching Chromium, actions on a live page by backend node id, the MiniWoB++
task pages and episode hooks, and the loopback static server that serves pages to the browser.
"""
