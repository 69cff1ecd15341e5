"""What rules code returns and raises: result dataclasses described for the spec, their plain JSON
form, input errors."""
