#ifndef XG_TEAM_H
#define XG_TEAM_H
#include <stdint.h>
typedef struct xg_team {
    int start;
    int stride;
    int size;
    int my_pe;
} xg_team_t;
extern xg_team_t xg_team_world;
extern xg_team_t xg_team_shared;
void xg_team_init(void);
static inline int xg_team_world_pe(const xg_team_t *team, int pe)
{
    return team->start + pe * team->stride;
}
#endif
