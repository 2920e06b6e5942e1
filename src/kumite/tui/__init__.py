"""Terminal play: Rich renderings of views and events, and the human agent."""
