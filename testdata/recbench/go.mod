module example.com/recbench

go 1.22
