"""`muster doctor`: the report and its store and settings checks (`checkup`), the Discord
checks (`on_discord`) and the offline check of the command tree (`command_tree`)."""
