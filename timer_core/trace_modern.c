/* SPDX-License-Identifier: MIT */
/* The trace driving the `modern` API: timer_setup(), fn(timer). */
#include "th/timer_modern.h"

#define TH_TV modern
#define TH_TV_NAME "modern"

#include "trace_variant.h"
