/**
 * MetaMask's Delegation Framework v1.3.0, the canonical deployments: the same addresses on every
 * chain that has them (CREATE2), as `@metamask/delegation-deployments` 2.0.0 lists them
 * (`DELEGATOR_CONTRACTS['1.3.0']`) and `@metamask/smart-accounts-kit`'s `getSmartAccountsEnvironment`
 * shapes them. A table of its own instead of an import: the package holds every version's table
 * (about 3.3 kB gzip), the snap needs one. `canonical.test.ts` checks it against both packages.
 */

/**
 * The kit's `SmartAccountsEnvironment` (`deploySmartAccountsEnvironment`'s result): the
 * DelegationManager, the EntryPoint (v0.7) the DeleGators are built for, the DeleGator factory,
 * the implementations and the caveat enforcers by contract name. Addresses are 20-byte hex.
 */
export type DelegationEnvironment = {
  /* eslint-disable @typescript-eslint/naming-convention -- the kit's field names, as `setChainConfig` takes them */
  /** DelegationManager: verifies and redeems delegations (ERC-7710 `redeemDelegations`). */
  DelegationManager: string;
  /** The EntryPoint v0.7 the implementations have compiled in. */
  EntryPoint: string;
  /** The DeleGators' SimpleFactory. */
  SimpleFactory: string;
  /* eslint-enable @typescript-eslint/naming-convention */
  /** Implementations by name; `EIP7702StatelessDeleGatorImpl` is the one an EOA delegates to. */
  implementations: Record<string, string>;
  /** Caveat enforcers by contract name (`NativeTokenPeriodTransferEnforcer`, ...). */
  caveatEnforcers: Record<string, string>;
};

/** The chains with the canonical v1.3.0 deployment (`DELEGATOR_CONTRACTS['1.3.0']`'s keys). */
export const CANONICAL_DELEGATION_CHAINS: readonly number[] = [
  1, 10, 56, 97, 100, 130, 137, 143, 146, 1155, 1301, 1328, 1329, 2020, 4114,
  4217, 4326, 4663, 5000, 5003, 5115, 6343, 8453, 10143, 10200, 13579, 14601,
  42161, 42170, 42220, 42431, 46630, 57073, 59141, 59144, 80002, 80069, 80094,
  84532, 202601, 421614, 560048, 737373, 747474, 763373, 5042002, 11142220,
  11155111, 11155420,
];

/** The canonical v1.3.0 environment (the same on every chain of {@link CANONICAL_DELEGATION_CHAINS}). */
export const CANONICAL_DELEGATION_ENVIRONMENT: Readonly<DelegationEnvironment> =
  {
    DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
    EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
    implementations: {
      MultiSigDeleGatorImpl: '0x56a9EdB16a0105eb5a4C54f4C062e2868844f3A7',
      HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4',
      EIP7702StatelessDeleGatorImpl:
        '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B',
    },
    caveatEnforcers: {
      AllowedCalldataEnforcer: '0xc2b0d624c1c4319760C96503BA27C347F3260f55',
      AllowedMethodsEnforcer: '0x2c21fD0Cb9DC8445CB3fb0DC5E7Bb0Aca01842B5',
      AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB',
      ApprovalRevocationEnforcer: '0xe264F1f09A19505a1ca1a86D5b01E8bFdb64324A',
      ArgsEqualityCheckEnforcer: '0x44B8C6ae3C304213c3e298495e12497Ed3E56E41',
      BlockNumberEnforcer: '0x5d9818dF0AE3f66e9c3D0c5029DAF99d1823ca6c',
      DeployedEnforcer: '0x24ff2AA430D53a8CD6788018E902E098083dcCd2',
      ERC20BalanceChangeEnforcer: '0xcdF6aB796408598Cea671d79506d7D48E97a5437',
      ERC20TransferAmountEnforcer: '0xf100b0819427117EcF76Ed94B358B1A5b5C6D2Fc',
      ERC20StreamingEnforcer: '0x56c97aE02f233B29fa03502Ecc0457266d9be00e',
      ERC721BalanceChangeEnforcer: '0x8aFdf96eDBbe7e1eD3f5Cd89C7E084841e12A09e',
      ERC721TransferEnforcer: '0x3790e6B7233f779b09DA74C72b6e94813925b9aF',
      ERC1155BalanceChangeEnforcer:
        '0x63c322732695cAFbbD488Fc6937A0A7B66fC001A',
      IdEnforcer: '0xC8B5D93463c893401094cc70e66A206fb5987997',
      LimitedCallsEnforcer: '0x04658B29F6b82ed55274221a06Fc97D318E25416',
      NonceEnforcer: '0xDE4f2FAC4B3D87A1d9953Ca5FC09FCa7F366254f',
      TimestampEnforcer: '0x1046bb45C8d673d4ea75321280DB34899413c069',
      ValueLteEnforcer: '0x92Bf12322527cAA612fd31a0e810472BBB106A8F',
      NativeTokenTransferAmountEnforcer:
        '0xF71af580b9c3078fbc2BBF16FbB8EEd82b330320',
      NativeBalanceChangeEnforcer: '0xbD7B277507723490Cd50b12EaaFe87C616be6880',
      NativeTokenStreamingEnforcer:
        '0xD10b97905a320b13a0608f7E9cC506b56747df19',
      NativeTokenPaymentEnforcer: '0x4803a326ddED6dDBc60e659e5ed12d85c7582811',
      OwnershipTransferEnforcer: '0x7EEf9734E7092032B5C56310Eb9BbD1f4A524681',
      RedeemerEnforcer: '0xE144b0b2618071B4E56f746313528a669c7E65c5',
      SpecificActionERC20TransferBatchEnforcer:
        '0x6649b61c873F6F9686A1E1ae9ee98aC380c7bA13',
      ERC20PeriodTransferEnforcer: '0x474e3Ae7E169e940607cC624Da8A15Eb120139aB',
      NativeTokenPeriodTransferEnforcer:
        '0x9BC0FAf4Aca5AE429F4c06aEEaC517520CB16BD9',
      ExactCalldataBatchEnforcer: '0x982FD5C86BBF425d7d1451f974192d4525113DfD',
      ExactCalldataEnforcer: '0x99F2e9bF15ce5eC84685604836F71aB835DBBdED',
      ExactExecutionEnforcer: '0x146713078D39eCC1F5338309c28405ccf85Abfbb',
      ExactExecutionBatchEnforcer: '0x1e141e455d08721Dd5BCDA1BaA6Ea5633Afd5017',
      MultiTokenPeriodEnforcer: '0xFB2f1a9BD76d3701B730E5d69C3219D42D80eBb7',
    },
  };
