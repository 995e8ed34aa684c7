"""The slash commands, grouped as discord.py cogs: playing a game, and looking things up."""
