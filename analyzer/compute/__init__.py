"""Running the kernels: one wrapper per batch kernel (it validates, allocates and calls), the
chunk runner and its Dask backend. Only this package calls the kernels' batch functions."""
