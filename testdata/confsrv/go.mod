module example.com/confsrv

go 1.22
