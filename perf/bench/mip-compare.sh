#!/bin/bash
# mip-compare.sh: Registration Requests/s through mclb (service ipmobile) against the home agent
# simulators directly, same run, over 1,000,000 distinct NAIs (knobs: see mobility-compare.sh).
exec "$(dirname "$0")/mobility-compare.sh" mip "$@"
