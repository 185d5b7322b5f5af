/* The perf_event system calls the perf backend makes, behind a table of
 * function pointers: the real one calls the kernel, the simulator's
 * (simkernel/uncore_sim_perf.h) decodes the attributes through its fake sysfs
 * formats onto the simulated registers.  Every call returns what the system
 * call returns, but with errors as -errno instead of -1 and errno. */
#ifndef UNCORE_BACKEND_PERF_SYS_H
#define UNCORE_BACKEND_PERF_SYS_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

struct uncore_perf_sys {
	/* fd, or -errno */
	int (*open)(struct uncore_perf_sys *s, struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags);
	/* bytes read, or -errno */
	ssize_t (*read)(struct uncore_perf_sys *s, int fd, void *buf, size_t len);
	/* 0, or -errno; req is PERF_EVENT_IOC_* */
	int (*ioctl)(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg);
	int (*close)(struct uncore_perf_sys *s, int fd);
	/* Whether perf_event_open would let this process count a whole CPU,
	 * judged without opening anything (uncore_perf_permission): 1 or 0.
	 * `paranoid_path`: perf_event_paranoid.  NULL: the layer does not say
	 * (its opens will). */
	int (*may_count_cpu)(struct uncore_perf_sys *s, const char *paranoid_path);
	/* Release the layer (NULL: nothing to release). */
	void (*destroy)(struct uncore_perf_sys *s);
};

/* The real system calls (static; destroy does nothing). */
struct uncore_perf_sys *uncore_perf_sys_real(void);

/* The real layer's read, inline: the backend's read path calls it without
 * going through the table when its layer is the real one (a call less per
 * event group and read).  The system call itself, not read(3): glibc's
 * read() is a cancellation point, which in a process with a second thread
 * switches the thread's cancellation type around every call (two atomic
 * operations, ~20 ns of a ~300 ns read measured here), and would let a
 * pthread_cancel unwind a PAPI_read while it holds a shared-counter lock.
 * A perf counter read never blocks, so it need not be one. */
static inline ssize_t uncore_perf_read_real(int fd, void *buf, size_t len)
{
#if defined(__x86_64__)
	/* The instruction itself, not syscall(3): its argument shuffle and
	 * errno round trip are ~15 instructions per event group and read
	 * (issue 14).  x86-64 Linux system call convention (the kernel's
	 * entry_64.S): number in rax, arguments in rdi, rsi, rdx; the
	 * instruction clobbers rcx and r11; rax returns -errno on failure. */
	long n;
	__asm__ volatile("syscall"
			 : "=a"(n)
			 : "0"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(len)
			 : "rcx", "r11", "memory");
	return (ssize_t)n;
#else
	long n = syscall(SYS_read, fd, buf, len);
	return n < 0 ? -errno : (ssize_t)n;
#endif
}

#endif
