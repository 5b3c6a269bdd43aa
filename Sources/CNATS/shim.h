#pragma once
// <nats/nats.h>, not <nats.h>: libnats 3.4.1's top-level <nats.h> only includes it behind a deprecation #warning,
// and CI builds with warnings as errors.
#include <nats/nats.h>
