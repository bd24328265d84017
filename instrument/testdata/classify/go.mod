module example.com/classify

go 1.22
