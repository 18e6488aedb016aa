#include "gas/xg_team.h"
#include "base/xg_compiler.h"
#include "gas/xg_gas.h"
XG_EXPORT xg_team_t xg_team_world;
XG_EXPORT xg_team_t xg_team_shared;
void xg_team_init(void)
{
    xg_team_world  = (xg_team_t){.start = 0, .stride = 1,
                                 .size = xg_gas.npes, .my_pe = xg_gas.me};
    xg_team_shared = xg_team_world;
}
