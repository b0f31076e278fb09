"""The JSON API under ``/api``: the guard every route passes (rate, address, CSRF, refusal → status), who may see a
table or a match, and the routes per resource. Accounts, pairing and ratings keep their routes in their own rooms."""
