return {
  setup = function(ctx, p)
    local t = nil
    return t.field -- line 4: indexing nil
  end,
  run = function() end,
}
