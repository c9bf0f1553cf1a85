/* SPDX-License-Identifier: MIT */
/* The trace driving the `legacy` API: setup_timer(), fn(data). */
#include "th/timer_legacy.h"

#define TH_TV legacy
#define TH_TV_NAME "legacy"
#define TH_TV_DATA_CALLBACK
#include "trace_variant.h"
