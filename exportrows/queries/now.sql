-- The database clock (the test kit can freeze it).
select pipe.now()
