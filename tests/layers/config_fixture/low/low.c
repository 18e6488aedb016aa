int low_reads(void)
{
    return (int)xg_config.low_knob + (int)xg_config.high_knob;
}
