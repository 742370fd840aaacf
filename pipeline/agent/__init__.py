"""The agent runtime shared by datagen, eval and serve: observations per mode, prompts, the
executor, conversations, the Policy protocol, the step/episode loop and the OpenAI-compatible client.
"""
