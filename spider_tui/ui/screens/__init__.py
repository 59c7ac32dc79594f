"""The screens: the table (``game_screen``) and the start screen with its menus (``start_screen``)."""
