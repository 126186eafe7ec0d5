"""Talking with Discord: messages, their rendering within Discord's limits, the outbox and its
delivery, component ids, the router of component interactions, error replies and checks."""
