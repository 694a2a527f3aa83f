"""The questions the analyzer answers, one room a family (docs/architecture.md), floors lowest
first: ``equity`` (the chance of winning from every score), ``odds`` (a decision point's
options played out), ``review`` (judging what was played) and ``advise`` (a bot's question at
its turn), ``simulate`` (whole hands and games) and ``tables`` (strategy tables, reports, a
deal solved). A new module goes into the room of its family, never at this top."""
