"""Reports: what the players and the moderator read (text, HTML, the SVG map, ``maester show``)."""
