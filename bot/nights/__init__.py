"""Game nights in the bot: the versioned night (`service`), its clock (pairing, publishing,
the sweep), the club's tables (`club`), the nights' games (`games`) and Discord events (`events`)."""
