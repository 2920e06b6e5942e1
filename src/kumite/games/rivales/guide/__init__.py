"""The beginner's guide to this game (guide.md, its pictures of the table): /learn/<id>."""
