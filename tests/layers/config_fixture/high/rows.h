XG_CONFIG_VAR(high_knob, "XGAS_HIGH_KNOB", XG_CFG_INT, "1", "0", "9",
              XG_CFG_USER, "a row of the higher layer")
