"""The cards and the table's rules: cards as the bits of a uint64 and their layouts
(``bits``, ``layout``), the integer codes the kernels share with the analyzer (``codes``),
legal cards, the trick's winner and the next seat (``rules``), and who plays a contract,
declares and leads (``seating``). Imports only the kernels' top modules."""
