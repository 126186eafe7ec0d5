"""Languages: the message catalogue (`i18n`), who speaks which language (`languages`), the
command translator, the refusal words (`text`) and the catalogue's upkeep (`i18n_tools`).
The catalogue files stay in bot/locale/."""
