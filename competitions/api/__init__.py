"""The competitions API, by sub-domain: competitions (`setup`), entries, the draw with the
bracket and group tables it makes (`draws`), and rounds and ties with the pad's frames
(`ties`). Thin views: look up, ask the permission on the object, one service or selector.
Errors are the API's one shape (`common`)."""
