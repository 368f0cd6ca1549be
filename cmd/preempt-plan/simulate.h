/* preempt-plan --simulate: the what-if queue simulation mode. */
#ifndef PREEMPT_PLAN_SIMULATE_H
#define PREEMPT_PLAN_SIMULATE_H

/* The whole `preempt-plan --simulate [options] [path ...]` mode: its own
 * option parsing (a leading --simulate is accepted and ignored), reading,
 * simulation and output. Returns the exit status. */
int pp_simulate_main(int argc, char **argv);

#endif
