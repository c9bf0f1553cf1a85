/* SPDX-License-Identifier: MIT */
/*
 * The timer API every variant offers, declared once. P is the variant's
 * symbol prefix (all variants link into one process), T its timer type.
 * Each variant header maps the kernel's names onto these (unless
 * TH_NO_KERNEL_NAMES), so code written against <linux/timer.h> reads as-is.
 *
 * Where the kernel would BUG()/WARN() on misuse, these refuse the call,
 * print a WARN naming the timer and its callback, and return a negative
 * TH_E* code; the wheel is left untouched. Flags that name no running base
 * are not refused: the kernel does not check them, and neither do these
 * (timer_core/wheel_impl.h, lock_timer_base(): the call migrates the timer
 * here, spins for ever, or faults, as v4.14 does).
 */
#ifndef TH_TIMER_API_H
#define TH_TIMER_API_H

#include "th/timer_base.h"

#define TH_TIMER_API(P, T)						\
/* mod_timer(): (re)arm at @expires. Return: 0 was inactive, 1 was	\
 * pending (or unchanged by a shortcut), or TH_E* on misuse. */		\
int P##mod_timer(T *timer, unsigned long expires);			\
/* mod_timer_pending(): as mod_timer() but never activates. */		\
int P##mod_timer_pending(T *timer, unsigned long expires);		\
/* timer_reduce(): modify only if it would expire earlier. */		\
int P##timer_reduce(T *timer, unsigned long expires);			\
/* add_timer(): arm at timer->expires; the timer must be inactive.	\
 * Return: 0, or TH_EPENDING/TH_ENOFUNC/TH_EUNINIT (TH_ENOBASE: the	\
 * running CPU has no base, a set-up error of the program). */		\
int P##add_timer(T *timer);						\
/* del_timer(): Return: 0 was not pending, 1 was, or TH_EUNINIT. */	\
int P##del_timer(T *timer);						\
/* timer_pending(): is the timer queued? */				\
int P##timer_pending(const T *timer);					\
/* Jiffies become @now (never backwards), then the softirq runs	\
 * the wheel. Return: callbacks run, or -1 if @now is in the past	\
 * or the call comes from one of this wheel's own callbacks. */	\
long P##run_timers(struct timer_base *base, unsigned long now);	\
/* Consistency check of every bucket, the bitmap and the lists.	\
 * Return: 0, or -1 with what is wrong in @err. */			\
int P##timers_check(const struct timer_base *base, char *err, size_t n);

#endif
