"""``dsdoctor estimate``: will the model fit, and with which ZeRO / offload setup (the command is
:mod:`dsdoctor.commands.estimate`)."""
