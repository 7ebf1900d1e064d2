"""Building blocks for ``generate_contract.py`` (fictional sample contract)."""
