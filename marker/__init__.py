"""What both apps share: the one error a service raises, the predicate table every
permission is decided in, and the API's one error shape. Imports nothing of ours."""
