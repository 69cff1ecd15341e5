"""Operations as data: the declarations, the one request path ``respond``, request schemas and
fields, the spec writer, batch."""
