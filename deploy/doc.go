// Package deploy holds no code: it is how an operator runs the arcade for
// real (systemd unit, container file, load-balancer example, runbook and
// scaling notes). Its tests parse those files so they cannot rot unseen.
package deploy
