"""What counts in the tables besides played results, and who receives them."""
