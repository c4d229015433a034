#!/bin/bash
# asn-compare.sh: MS_PreAttachment_Req/s through mclb (service asn, sticky asn msid) against the
# ASN gateway simulators directly, same run, over 1,000,000 distinct MSIDs (knobs: see mobility-compare.sh).
exec "$(dirname "$0")/mobility-compare.sh" asn "$@"
