-- require("sub.inner")
return {name = "inner"}
