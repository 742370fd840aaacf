"""Models: resolving a spec to a Hugging Face folder, token counting, functional tokens, the one
conversation rendering shared by training and inference, loading a trained adapter, batched
generation.
"""
