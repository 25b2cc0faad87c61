"""Importers: other formats in which card data was published, turned into a set's data files."""
