/* uncored's Prometheus endpoint, the HTTP side (prom_http.h). */
#define _GNU_SOURCE
#include "prom_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/text.h"
#include "service/prometheus.h"

#define BODY_MAX (1u << 20)

int prom_http_listen(const char *spec)
{
	char host[64];
	uint64_t port;
	const char *colon = strrchr(spec, ':');
	struct sockaddr_in a = {.sin_family = AF_INET};
	if (!colon || (size_t)(colon - spec) >= sizeof(host) || uncore_parse_u64(colon + 1, &port) < 0 ||
	    port == 0 || port > 65535) {
		fprintf(stderr, "uncored: --prometheus wants ADDRESS:PORT (127.0.0.1:9464), not %.80s\n", spec);
		return -1;
	}
	memcpy(host, spec, (size_t)(colon - spec));
	host[colon - spec] = '\0';
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		fprintf(stderr, "uncored: --prometheus: %.64s is not an IPv4 address\n", host);
		return -1;
	}
	a.sin_port = htons((uint16_t)port);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 16) != 0) {
		fprintf(stderr, "uncored: --prometheus: cannot listen at %s: %s\n", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		struct pollfd w = {fd, POLLOUT, 0};
		if (poll(&w, 1, 500) <= 0)
			return; /* a scraper that does not read is dropped */
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k <= 0)
			return;
		p += k;
		n -= (size_t)k;
	}
}

void prom_http_serve(int lfd, struct uncored_prom *p)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	char req[2048];
	size_t got = 0;
	while (got < sizeof(req) - 1 && !memmem(req, got, "\r\n\r\n", 4)) {
		struct pollfd r = {fd, POLLIN, 0};
		if (poll(&r, 1, 500) <= 0)
			break;
		ssize_t k = recv(fd, req + got, sizeof(req) - 1 - got, MSG_DONTWAIT);
		if (k < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	req[got] = '\0';
	char head[256];
	if (strncmp(req, "GET /metrics ", 13) != 0 && strncmp(req, "GET /metrics?", 13) != 0) {
		static const char nf[] = "uncored serves GET /metrics\n";
		int n = snprintf(head, sizeof(head),
				 "HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
				 "Connection: close\r\n\r\n%s",
				 sizeof(nf) - 1, nf);
		send_all(fd, head, (size_t)n);
		close(fd);
		return;
	}
	char *body = malloc(BODY_MAX);
	long n = body ? uncored_prom_render(p, body, BODY_MAX) : -1;
	int h = n < 0 ? snprintf(head, sizeof(head),
				 "HTTP/1.0 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		      : snprintf(head, sizeof(head),
				 "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
				 "Content-Length: %ld\r\nConnection: close\r\n\r\n",
				 n);
	send_all(fd, head, (size_t)h);
	if (n > 0)
		send_all(fd, body, (size_t)n);
	free(body);
	close(fd);
}
