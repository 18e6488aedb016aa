/* check_config.cmake must refuse this tree: low reads a row of high. */
XG_CONFIG_VAR(low_knob, "XGAS_LOW_KNOB", XG_CFG_INT, "1", "0", "9", XG_CFG_USER,
              "a row of the lower layer")
