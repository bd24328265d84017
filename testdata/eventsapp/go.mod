module example.com/eventsapp

go 1.21
