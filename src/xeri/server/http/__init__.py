"""The HTTP edges: headers, hosts and origins, request bodies, read deadlines, the page's files."""
