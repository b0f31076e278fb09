"""What the server and clients say: requests and messages as schema models, their JSON Schema, refusals."""
