"""The thin runtime: state, farm geometry, primitives (the verbs), the engine loop, agents, CLI.

It names no action space, card or edition: all of those come from a compiled pack.
"""
