module hostfall

go 1.26
