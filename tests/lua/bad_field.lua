return {
  run = function() end,
  check = "not a function",
}
