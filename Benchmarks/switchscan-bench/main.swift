print("switchscan-bench: not yet written")
