"""Who may talk to this server and who owns what: Host/Origin checks (hosts.py), owner tokens
(tokens.py), identities behind proxies (identity.py), and the middleware that applies them to
every request (guard.py). See README, "Exposing backscope"."""
