// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_write_bw: the TCP side channel (QP numbers, per size handshake) */
#include "wbw.h"

int xfer(int fd, void *buf, size_t len, bool out)
{
	char *p = buf;

	while (len) {
		ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL) :
				  recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err("TCP %s: %s", out ? "send" : "receive",
			    strerror(errno));
			return -1;
		}
		if (n == 0) {
			err("the peer closed the TCP connection");
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int msg_send(int fd, uint32_t type, uint64_t size)
{
	struct wire_msg m = { .type = htonl(type), .size = htonl(size) };

	return xfer(fd, &m, sizeof(m), true);
}

int msg_expect(int fd, uint32_t type, uint64_t size)
{
	struct wire_msg m;

	if (xfer(fd, &m, sizeof(m), false))
		return -1;
	if (ntohl(m.type) == MSG_FAILED && type == MSG_VERIFIED) {
		err("the server found wrong data in size %u", ntohl(m.size));
		return -1;
	}
	if (ntohl(m.type) != type || ntohl(m.size) != size) {
		err("out of step with the peer: got message %u size %u, "
		    "wanted %u size %llu", ntohl(m.type), ntohl(m.size), type,
		    (unsigned long long)size);
		return -1;
	}
	return 0;
}

static void tcp_tune(int fd)
{
	int one = 1;

	/* the per size handshake is a few bytes each way */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int tcp_server(unsigned int port)
{
	struct sockaddr_in6 a6 = {
		.sin6_family = AF_INET6, .sin6_port = htons(port),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	struct sockaddr_in a4 = {
		.sin_family = AF_INET, .sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, zero = 0, ls, fd;

	/* one IPv6 socket takes IPv4 clients too, where IPv6 exists at all */
	ls = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls >= 0) {
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(ls, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(ls, (struct sockaddr *)&a6, sizeof(a6))) {
			err("bind to TCP port %u: %s", port, strerror(errno));
			close(ls);
			return -1;
		}
	} else {
		ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (ls < 0) {
			err("socket: %s", strerror(errno));
			return -1;
		}
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(ls, (struct sockaddr *)&a4, sizeof(a4))) {
			err("bind to TCP port %u: %s", port, strerror(errno));
			close(ls);
			return -1;
		}
	}
	if (listen(ls, 1)) {
		err("listen: %s", strerror(errno));
		close(ls);
		return -1;
	}
	info("waiting for a client on TCP port %u", port);
	do
		fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		err("accept: %s", strerror(errno));
	close(ls);
	if (fd >= 0)
		tcp_tune(fd);
	return fd;
}

int tcp_client(const char *host, unsigned int port)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res, *ai;
	char service[8];
	int rc, fd = -1, last = 0;
	time_t until = time(NULL) + CONNECT_RETRY_SEC;
	bool said = false;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc) {
		err("%s: %s", host, gai_strerror(rc));
		return -1;
	}
	/*
	 * A server still setting up its device is not listening yet: a
	 * refused connection is tried again for a while, so that a script
	 * may start both sides at once.
	 */
	for (;;) {
		for (ai = res; ai; ai = ai->ai_next) {
			fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
				    ai->ai_protocol);
			if (fd < 0) {
				last = errno;
				continue;
			}
			if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
				goto done;
			last = errno;
			close(fd);
			fd = -1;
		}
		if (last != ECONNREFUSED || time(NULL) >= until)
			break;
		if (!said)
			info("%s port %u: no server yet, trying again for %d s",
			     host, port, CONNECT_RETRY_SEC);
		said = true;
		usleep(200 * 1000);
	}
	err("connect to %s port %u: %s", host, port, strerror(last));
done:
	freeaddrinfo(res);
	if (fd >= 0)
		tcp_tune(fd);
	return fd;
}
