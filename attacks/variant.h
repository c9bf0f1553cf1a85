/* SPDX-License-Identifier: MIT */
/*
 * The one timer variant this attack binary is built for. CMake defines one
 * of TH_ATK_LEGACY, TH_ATK_TRANSITIONAL, TH_ATK_MODERN (and TH_ATK_VARIANT,
 * TH_ATK_CONFIG, TH_ATK_SEED as strings); every attacks/ translation unit
 * gets the kernel's names (mod_timer, timer_setup, jiffies, ...) from
 * exactly one variant header through this file.
 */
#ifndef TH_ATTACKS_VARIANT_H
#define TH_ATTACKS_VARIANT_H

#if defined(TH_ATK_LEGACY) + defined(TH_ATK_TRANSITIONAL) + defined(TH_ATK_MODERN) != 1
#error "define exactly one of TH_ATK_LEGACY, TH_ATK_TRANSITIONAL, TH_ATK_MODERN"
#endif

#if defined(TH_ATK_LEGACY)
#include "th/timer_legacy.h"
#elif defined(TH_ATK_TRANSITIONAL)
#include "th/timer_transitional.h"
#else
#include "th/timer_modern.h"
#endif

/* Does the timer have .data (4.14 layout: legacy and the rc3 shim)? */
#if defined(TH_ATK_MODERN)
#define TH_ATK_HAS_DATA 0
#else
#define TH_ATK_HAS_DATA 1
#endif

#ifndef TH_ATK_VARIANT
#error "TH_ATK_VARIANT (\"legacy\", ...) must be defined by the build"
#endif
#ifndef TH_ATK_CONFIG
#define TH_ATK_CONFIG "unknown"
#endif
#ifndef TH_ATK_SEED
#define TH_ATK_SEED "-"
#endif

#endif
