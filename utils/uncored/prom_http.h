/* uncored's Prometheus endpoint, the HTTP side (`--prometheus ADDR:PORT`):
 * a listening TCP socket, and one scrape served per accepted connection
 * (GET /metrics; anything else 404), the exposition from
 * src/service/prometheus.h. */
#ifndef UNCORED_PROM_HTTP_H
#define UNCORED_PROM_HTTP_H

struct uncored_prom;

/* Listen at "IPV4:PORT" (127.0.0.1:9464): the descriptor, or -1 with the
 * reason on stderr. */
int prom_http_listen(const char *spec);

/* Accept a connection on `lfd` and answer it (waiting at most 500 ms for
 * its request: a slow scraper cannot hold the service longer). */
void prom_http_serve(int lfd, struct uncored_prom *p);

#endif
