/* SPDX-License-Identifier: MIT */
/* The trace driving the `transitional` API: the 4.14-rc3 timer_setup() cast shim. */
#include "th/timer_transitional.h"

#define TH_TV transitional
#define TH_TV_NAME "transitional"

#include "trace_variant.h"
