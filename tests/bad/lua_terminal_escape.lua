-- an error message that would retitle the terminal and paint it red
error("\27]0;pwned\7\27[31mred\r\n\194\155x")
